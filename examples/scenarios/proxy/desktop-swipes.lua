-- proxy: on
-- examples/desktop-swipes.lua under --proxy.
dofile("../../desktop-swipes.lua")
