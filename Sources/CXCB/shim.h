/* libxcb (Debian: libxcb1-dev): the X protocol for the X11 focus provider. Headers only. */
#ifndef MOTIONSCRIPT_CXCB_SHIM_H
#define MOTIONSCRIPT_CXCB_SHIM_H
#include <xcb/xcb.h>
#include <xcb/xproto.h>
#endif
