/** Reading JUnit XML back in tests: validated against junit.xsd (xmllint, offline) and parsed by junit2json. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse, type TestSuite, type TestSuites } from 'junit2json';
import { validateXML } from 'xmllint-wasm';

const XSD = readFileSync(path.resolve(process.cwd(), 'test/core/report/junit.xsd'), 'utf8');

/** The schema errors of a JUnit XML text (empty when valid). */
export async function junitSchemaErrors(xml: string): Promise<string[]> {
  const result = await validateXML({ xml: [{ fileName: 'report.xml', contents: xml }], schema: [XSD] });
  return result.valid ? [] : result.errors.map((e) => e.rawMessage);
}

/** The parsed `<testsuites>` of a valid JUnit XML text (fails the test when the text is not valid). */
export async function readJunit(xml: string): Promise<TestSuites & { testsuite: TestSuite[] }> {
  const errors = await junitSchemaErrors(xml);
  if (errors.length > 0) throw new Error(`not valid JUnit XML:\n${errors.join('\n')}`);
  const parsed = await parse(xml) as TestSuites | null;
  if (!parsed || !('testsuite' in parsed || 'tests' in parsed)) throw new Error('no <testsuites>');
  return { ...parsed, testsuite: parsed.testsuite ?? [] };
}
