"""One module per ``abkit`` subject; each has ``register(sub, lang, add_lang)`` and ``run(args)``."""
