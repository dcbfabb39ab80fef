/* libwayland-client (Debian: libwayland-dev): the Wayland wire protocol for the wlroots focus
   provider. Headers only; the protocol's own client code is in CForeignToplevel. */
#ifndef MOTIONSCRIPT_CWAYLAND_SHIM_H
#define MOTIONSCRIPT_CWAYLAND_SHIM_H
#include <wayland-client.h>
#endif
