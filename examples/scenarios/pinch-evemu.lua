-- Pointers decoded from an evemu recording (multi-touch protocol B), in raw device units.
motion.pointers():emit("pointer")
