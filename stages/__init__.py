"""Thin DVC stage entry points: read params, call the library, write outputs and metrics."""
