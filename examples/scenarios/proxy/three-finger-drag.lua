-- proxy: on
-- examples/three-finger-drag.lua under --proxy.
dofile("../../three-finger-drag.lua")
