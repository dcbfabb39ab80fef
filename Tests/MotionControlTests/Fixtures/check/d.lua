error("boom at setup")
