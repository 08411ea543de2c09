// Preloaded into a benchmarked child process (node --require): on exit, reports the process's
// peak resident set size (read by the pipeline and load benchmarks) and its minor page faults
// (every thread's first touches of memory pages; read by the pipeline benchmark) on standard error.
'use strict';
process.on('exit', () => {
  const usage = process.resourceUsage();
  process.stderr.write(`\nBENCH_PEAK_RSS_MB ${(usage.maxRSS / 1024).toFixed(1)}\nBENCH_MINOR_FAULTS ${usage.minorPageFault}\n`);
});
