"""One emitter per output target; each reads only the model and returns ``{path: text}``."""
