"""Provider tool-schema files: one module per provider, sharing the tool schemas below."""
