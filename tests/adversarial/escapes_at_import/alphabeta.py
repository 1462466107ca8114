"""Fails at import with terminal escape sequences and HTML in the message: the feedback shows the message outside
a code block, so its HTML must be escaped there and its escape sequences removed."""

raise ValueError("\x1b[2J\x1b]0;pwned\x07\x9b31m<script>alert(1)</script><img src=x onerror=alert(2)>")
