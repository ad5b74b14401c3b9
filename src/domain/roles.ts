/** The two roles of a conversation, spelled the same in code, store and reports. */
export type Role = 'persuader' | 'persuadee';

export const ROLES: readonly Role[] = ['persuader', 'persuadee'];
