#include "CLuaShimStdio.h"
#include <stdio.h>

void ms_stdout_linebuffered(void) { setvbuf(stdout, NULL, _IOLBF, 0); }
