import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The git revision of the pmiyc code that runs, when it runs from a git checkout. */
export function gitRevision(): string | undefined {
  try {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    return (
      execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'], timeout: 2000 })
        .toString()
        .trim() || undefined
    );
  } catch {
    return undefined;
  }
}
