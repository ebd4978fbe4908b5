"""Explaining solutions to people: text now; pictures and the 3D viewer are imported lazily."""
