"""Small interface pieces shared by every screen, one job per module."""

# ``text`` (fitting and wrapping text), ``geometry`` (layout arithmetic),
# ``shading`` (gradients and tints), ``panels`` (panels, bars, scrims),
# ``focus`` (the widget protocol and keyboard focus), ``button``, ``controls``
# (switch, cycler, stepper, text box, list), ``toast``, ``suits`` (suit
# pictures) and ``dialog`` (the modal dialog scene). Import each name from the
# module that defines it.
