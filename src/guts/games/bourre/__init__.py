"""Bourré: the trick-taking game of Acadiana."""
