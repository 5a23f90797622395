"""Trials (levels 13-14): branches, their minimal chains, nested trials and
the look-ahead that chooses the step an explanation shows."""
