"""Pieces shared by every game kind: resources, costs, payment solver, science, data loading."""
