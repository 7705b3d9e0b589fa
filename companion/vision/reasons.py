"""Why a place is asked about: the reasons the dice reader gives for what it cannot read
(``Uncertain.reason``), and the groups of them the face network treats alike
(``face_net.second_opinion``)."""

from __future__ import annotations

# Why a lone mark centred on a die body was not read as a 1 (a logo face, if calibrated).
LOGO_REASON = "a mark that is not a pip (logo face?)"
OFF_CENTRE_REASON = "lone pip off the face centre"
NO_PIPS_REASON = "die-shaped but no readable pips"
# Uncertain spots placed at the centre of a die's outline rather than of its pips.
OUTLINE_REASONS = frozenset({LOGO_REASON, OFF_CENTRE_REASON, NO_PIPS_REASON})
# Where the pip reader's own evidence conflicts: a spot of the pips' colour where their face
# has none (glare, or a pip of a fuller face), spots of other colours or sizes among the
# pips (marbling, a glint, a speck), two passes or two readings that differ. Such marks
# fool the network too: it does not settle these by reading one value steadily
# (``face_net.STEADY``).
EXTRA_SPOT_REASON = "a spot where a {} has no pip"
MIXED_COLOURS_REASON = "pips of different colours"
MIXED_SIZES_REASON = "pips of different sizes"
TWO_PASSES_REASON = "read as {} and as {}"
TWO_READINGS_REASON = "two readings on one die"
# A die read as from overhead where the frame read as if told a slant, kept, reads nothing
# (``dice._read_as_if_told``).
OVERHEAD_ONLY_REASON = "read as {} only as seen from overhead"
CONFLICT_REASONS = frozenset({EXTRA_SPOT_REASON.format(v) for v in range(1, 7)}
                             | {TWO_PASSES_REASON.format(a, b) for a in range(1, 7) for b in range(1, 7)}
                             | {MIXED_COLOURS_REASON, MIXED_SIZES_REASON, TWO_READINGS_REASON})
NO_BODY_REASON = "no die body around the pips"
NOT_DIE_SHAPED_REASON = "pips not on a die-shaped body"
# Spots on a round body: a coin's marks (the stars around a euro's rim, dots around a
# numeral) or a button's holes more likely than a die's pips, though a die seen at a slant,
# stretched back, can look as round. The network may read a die there, as from pips with
# no body; if it does not, nothing is reported: the players are not asked about a coin.
ROUND_BODY_REASON = "pips on a round body (a coin?)"
EDGE_REASON = "at the frame's edge (pips may be cut off)"
# Pips with no die body found around them, or on a round one (a coin's marks): what they
# show is no evidence of a die, so the network must read it as it would alone, and where it
# sees no face around them they are not asked about (``face_net.SCREEN``). Pips on a
# body that is not die-shaped are on a die's body (a black die seen steeply, its sides as
# black as its top; two dice of a colour run together; marbling left out of one): there the
# network confirms the value they show, as where a check doubted them. (Rendered dice 24-48
# px seen 45-60 degrees, no calibration: 442 -> 453 of 480 read right, 3 -> 2 wrong values;
# all 250 dev photos as 640x480 frames, three looks: 5 more right over seven views, 1 fewer
# wrong.) A body too big for a die (a sleeve, a page) is not told apart: by its size in pip
# radii, the squashed pips of dice seen steeply measure small and true dice fell among the
# too big (rendered, 453 -> 442); no more dice were read on frames with no dice (a deep-sky
# photo, a printed page, rendered keyboards and clutter).
BODILESS_REASONS = frozenset({NO_BODY_REASON, ROUND_BODY_REASON})
# Spots the network does not settle by reading one value steadily (``face_net.STEADY``):
# the pip reader's own evidence conflicts, or the body may be two dice's (where pips on a
# body not die-shaped show no value, a face seen steadily may be the neighbour's).
UNSTEADY_REASONS = CONFLICT_REASONS | {NOT_DIE_SHAPED_REASON}
# Pips no die-shaped body holds: just below another die, they may be on its near side,
# whose value the network may confirm but not complete (``slant.possible_sides``).
SHAPELESS_REASONS = BODILESS_REASONS | {NOT_DIE_SHAPED_REASON}
# A mark, or pips on a body not die-shaped, just below a die read: its near side seen at a
# slant (the side's pips run together into one mark, or the side outlined with its top),
# where it is that die's plastic in shade (``slant.sides_under_their_tops``).
SHADED_SIDE_REASONS = frozenset({LOGO_REASON, NOT_DIE_SHAPED_REASON})
