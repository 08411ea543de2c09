// `npm run schema`: writes docs/report.schema.json, the JSON Schema of the check report, from its
// zod definitions in src-core/report/schema.ts (run with tsx, which loads the TypeScript).
// `npm run schema -- --check` only compares, and exits 1 when the committed file differs.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { reportSchemaText } from '../src-core/report/schema.ts';

const target = path.resolve(import.meta.dirname, '../docs/report.schema.json');
const text = reportSchemaText();
if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    // missing: differs
  }
  if (current !== text) {
    console.error(`${path.relative(process.cwd(), target)} is not what src-core/report/schema.ts generates: run npm run schema`);
    process.exit(1);
  }
} else {
  writeFileSync(target, text);
  console.log(`wrote ${path.relative(process.cwd(), target)}`);
}
