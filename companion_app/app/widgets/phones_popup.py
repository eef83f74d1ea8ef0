"""Phones: one QR code per seat (the page's URL with the seat's token), the URL as text for
typing, "Pair again" per seat (a new token; the old page is closed), and "Stop phones"."""

from __future__ import annotations

from typing import Any

from kivy.graphics.texture import Texture
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.popup import Popup

from companion_app.app.screens import load_kv
from companion_app.phones.pairing import qr_rows

DARK, LIGHT = 0, 255


def qr_texture(url: str) -> Texture:
    """The QR code as a small greyscale texture, one texel per module (scaled up sharply)."""
    rows = qr_rows(url)
    size = len(rows)
    # Kivy's textures start at the bottom row.
    data = bytes(DARK if dark else LIGHT for row in reversed(rows) for dark in row)
    texture = Texture.create(size=(size, size), colorfmt="luminance")
    texture.blit_buffer(data, colorfmt="luminance", bufferfmt="ubyte")
    texture.mag_filter = "nearest"
    texture.min_filter = "nearest"
    return texture


class SeatPairing(BoxLayout):
    """One seat: name, QR code, URL, "Pair again". Layout in phones_popup.kv."""

    name = StringProperty("")
    url = StringProperty("")
    texture = ObjectProperty(None, allownone=True)
    seat = 0
    popup: Any = None

    def show(self, url: str) -> None:
        self.url = url
        self.texture = qr_texture(url)

    def pair_again(self) -> None:
        if self.popup is not None:
            self.popup.pair_again(self)


class PhonesPopup(Popup):
    """Opened from the game screen's toolbar; ``phones`` is the app's running TablePhones."""

    def __init__(
        self,
        phones: Any,
        names: tuple[str, ...],
        tablets: frozenset[int] = frozenset(),
        **kwargs: Any,
    ) -> None:
        """``tablets``: the seats the tablet plays, offered no phone (their cards are the
        tablet's: a phone would show them to whoever scans it)."""
        super().__init__(**kwargs)
        self.phones = phones
        grid = self.ids.seats
        for seat, name in enumerate(names):
            if seat in tablets:
                continue
            card = SeatPairing(name=name)
            card.seat = seat
            card.popup = self
            card.show(phones.url(seat))
            grid.add_widget(card)

    def pair_again(self, card: SeatPairing) -> None:
        card.show(self.phones.pair(card.seat))

    def stop_phones(self) -> None:
        self.dismiss()
        from kivy.app import App

        App.get_running_app().stop_phones()


load_kv(__file__)
