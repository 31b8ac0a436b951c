"""Every hand ranking of the rule texts (registry filled in as rankings land)."""

from guts.rankings.base import Category, Evaluation, Ranking, pack
from guts.rankings.wilds import JokerMode, Wilds

__all__ = ["Category", "Evaluation", "JokerMode", "Ranking", "Wilds", "pack"]
