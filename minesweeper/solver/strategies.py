"""Imports every strategy module so that each registers itself."""
