"""Watch the search happen: step-through pages of a trace, of a student's search beside the expected one,
and a pruning practice page (:mod:`.steps` computes the steps, :mod:`.page` writes the pages,
:mod:`.practice` makes the practice trees)."""
