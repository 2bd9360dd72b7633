/**
 * The source code of the register mirror (table `marks`): the `global_trademark_database` of the
 * API (`watch.sources`, `hit.sourceCode`). The one place it is spelt.
 */
export const MIRROR_SOURCE = 'global_trademark_database';
