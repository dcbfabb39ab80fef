/* libwayland-server (Debian: libwayland-dev, as the client's headers): a compositor for the
   wlroots provider's tests, one without the foreign-toplevel protocol. Headers only. */
#ifndef MOTIONSCRIPT_CWAYLANDSERVER_SHIM_H
#define MOTIONSCRIPT_CWAYLANDSERVER_SHIM_H
#include <wayland-server-core.h>
#endif
