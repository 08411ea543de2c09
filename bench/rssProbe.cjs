// Preloaded into a benchmarked child process (node --require): on exit, reports the process's
// peak resident set size on standard error for the pipeline benchmark to read.
'use strict';
process.on('exit', () => {
  process.stderr.write(`\nBENCH_PEAK_RSS_MB ${(process.resourceUsage().maxRSS / 1024).toFixed(1)}\n`);
});
