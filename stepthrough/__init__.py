"""Watch the search happen, shared by the three paths: the SVG tree (:mod:`.svgtree`, :mod:`.typeset`), a trace's
steps (:mod:`.steps`) and the self-contained step-through pages (:mod:`.page`). Imports only the core."""
