"""compat/run: CPython's regression tests as aasm's compatibility gate (see docs/compatibility.md)."""
