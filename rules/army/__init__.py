"""Army-list maths: points, order dice, officers and force organisation, from plain data."""
