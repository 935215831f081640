// The Kafka broker's runtime jars, fetched once from Maven Central (by `mvn`) into a cache folder;
// later starts are offline. Used by kafka.mjs (`start`, `jars`).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

function pom(version) {
  const dep = (g, a, v) =>
    `<dependency><groupId>${g}</groupId><artifactId>${a}</artifactId><version>${v}</version></dependency>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>route-service</groupId><artifactId>kafka-runtime</artifactId><version>1</version><packaging>pom</packaging>
  <dependencies>
    ${dep('org.apache.kafka', 'kafka_2.13', version)}
    ${dep('org.slf4j', 'slf4j-reload4j', '1.7.36')}
    ${dep('ch.qos.reload4j', 'reload4j', '1.2.25')}
  </dependencies>
</project>
`;
}

/**
 * Download the broker's runtime jars once; later runs are offline. Concurrent first starts (two
 * test brokers at once) must not share a half-filled folder: each download fills a folder of its
 * own, and `.complete` is then replaced atomically with that folder's name; readers use the folder
 * it names. Returns the folder of the jars.
 */
export function ensureJars(cacheDir, version, say, fail) {
  const marker = join(cacheDir, '.complete');
  if (existsSync(marker)) {
    const named = readFileSync(marker, 'utf8').trim();
    // Older caches wrote "<n> jars" and kept the jars in libs/.
    const dir = /^libs[\w.-]*$/.test(named) ? join(cacheDir, named) : join(cacheDir, 'libs');
    if (existsSync(dir)) return dir;
  }
  mkdirSync(cacheDir, { recursive: true });
  const dirName = `libs-${process.pid}-${Date.now()}`;
  const dir = join(cacheDir, dirName);
  const pomPath = join(cacheDir, `pom-${process.pid}.xml`);
  writeFileSync(pomPath, pom(version));
  say(`downloading Kafka ${version} jars from Maven Central into ${dir} (once)`);
  const r = spawnSync(
    'mvn',
    [
      '-B',
      '-q',
      '-Dstyle.color=never',
      '-f',
      pomPath,
      'dependency:copy-dependencies',
      '-DincludeScope=runtime',
      `-DoutputDirectory=${dir}`,
    ],
    // Maven's output goes to stderr: stdout carries only the script's own lines, whose last one
    // is the KAFKA_BROKERS line callers parse.
    { stdio: ['ignore', process.stderr, 'inherit'] },
  );
  if (r.error) fail(`could not run mvn (is Maven installed?): ${r.error.message}`);
  if (r.status !== 0) fail(`mvn dependency:copy-dependencies exited with ${r.status}`);
  const jars = readdirSync(dir).filter((f) => f.endsWith('.jar'));
  if (!jars.some((j) => j.startsWith('kafka_2.13-'))) fail(`no kafka_2.13 jar in ${dir}`);
  const tmp = `${marker}.${process.pid}`;
  writeFileSync(tmp, `${dirName}\n`);
  renameSync(tmp, marker);
  return dir;
}
