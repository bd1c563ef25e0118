/**
 * The name `delete_output` is listed and called by: shared by its listing (delete-tool.ts), the code it loads on its
 * first call (delete-output.ts, whose refusals name it) and the build's validators.
 */
export const DELETE_OUTPUT_TOOL = 'delete_output';
