-- examples/per-app.lua over focus changes and swipes: per-app.expected.jsonl pins which binding each swipe fires,
-- a focus change in the middle of a swipe included (the swipe stays the application's it began in).
local here = arg[0]:match("^(.*/)") or "./"
dofile(here .. "../per-app.lua")
