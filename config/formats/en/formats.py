"""English date and time formats on a 24-hour clock, as the Russian ones are: a venue's pages, slips and
projector read the same times whatever the language (Django's English default is "3:05 p.m.")."""

DATE_FORMAT = "j N Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j N Y, H:i"
SHORT_DATE_FORMAT = "Y-m-d"
SHORT_DATETIME_FORMAT = "Y-m-d H:i"
