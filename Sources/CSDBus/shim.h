/* sd-bus from libsystemd (Debian: libsystemd-dev): the session bus for the KWin and GNOME Shell
   focus providers. Headers only. */
#ifndef MOTIONSCRIPT_CSDBUS_SHIM_H
#define MOTIONSCRIPT_CSDBUS_SHIM_H
#include <systemd/sd-bus.h>
#endif
