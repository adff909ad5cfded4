"""Pure image helpers: loading and validation, normalisation, cropping, finding text."""
