"""Reusable widgets drawn with Kivy graphics."""
