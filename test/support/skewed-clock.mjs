// Loaded with `--import` into a command under test: shifts `Date.now()` by MCP_TEST_CLOCK_SKEW_MS, as on a machine
// whose clock is off (a laptop or container that drifted).
const skew = Number(process.env.MCP_TEST_CLOCK_SKEW_MS ?? 0);
const realNow = Date.now;
Date.now = () => realNow() + skew;
