"""Pure table logic: find a grid among text boxes, map headers to the schema, parse cells."""
