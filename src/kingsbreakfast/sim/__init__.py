"""Simulations: matches, tournaments, statistics, batch simulation."""
