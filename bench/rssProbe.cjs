// Preloaded into a benchmarked child process (node --require): on exit, reports the process's
// peak resident set size and its minor page faults (every thread's: the first touches of memory
// pages) on standard error for the pipeline and load benchmarks to read.
'use strict';
process.on('exit', () => {
  const usage = process.resourceUsage();
  process.stderr.write(`\nBENCH_PEAK_RSS_MB ${(usage.maxRSS / 1024).toFixed(1)}\nBENCH_MINOR_FAULTS ${usage.minorPageFault}\n`);
});
