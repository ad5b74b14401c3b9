import { describe, expect, it } from 'vitest';
import { InputError } from '../../domain/errors/input-error.js';
import { dataMirrorFrom } from './data-access.js';

function refusalOf(value: string): string {
  try {
    dataMirrorFrom(value);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as Error).message;
  }
  throw new Error(`expected ${value} to be refused`);
}

describe('dataMirrorFrom', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['https://mirror.example.org/pmiyc-data/', 'https://mirror.example.org/pmiyc-data/'],
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
  ])('accepts %j', (value, mirror) => {
    expect(dataMirrorFrom(value)).toBe(mirror);
  });

  it.each([
    ['https://user:s3cret@host.example/data/', 'https://host.example/data/'],
    ['https://token@host.example/', 'https://host.example/'],
    ['http://:s3cret@127.0.0.1:9/', 'http://127.0.0.1:9/'],
  ])('refuses credentials in %s without repeating them', (value, withoutCredentials) => {
    const message = refusalOf(value);
    expect(message).toBe(
      `PMIYC_DATA_MIRROR holds a user name or password: use a URL without credentials, such as ${withoutCredentials} (or copy the files and pass --data-dir)`,
    );
    expect(message).not.toMatch(/s3cret|user:|token/);
  });

  it.each([
    ['mirror.example.org/data', 'PMIYC_DATA_MIRROR is not a URL'],
    ['file:///srv/pmiyc-data/', 'PMIYC_DATA_MIRROR must be an http(s) URL, not file:'],
  ])('refuses %s', (value, start) => {
    expect(refusalOf(value).startsWith(start)).toBe(true);
  });
});
