"""King's Breakfast (King Lui, Moon & Weissblum, 2003): the whole game in one package.

``kingsbreakfast.engine`` holds the rules; everything else builds on it.
"""

__version__ = "0.1.0"
