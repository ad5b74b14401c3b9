// InputError lives with the rest of the error family in ./errors/; this path stays for its importers.
export { InputError } from './errors/input-error.js';
