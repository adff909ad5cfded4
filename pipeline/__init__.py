"""stockshot: inventory screenshots in, verified and audited tool actions out."""

__version__ = "0.1.0"
