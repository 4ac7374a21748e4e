"""The fabric: configuration layout (and later the ADG builder and fabric RTL)."""
