#ifndef MOTIONSCRIPT_CLUASHIM_STDIO_H
#define MOTIONSCRIPT_CLUASHIM_STDIO_H

/* Makes the C stdout stream line-buffered (what scripts write with io.write, once stdout
 * points at stderr, then comes out in step with the diagnostics). */
void ms_stdout_linebuffered(void);

#endif
