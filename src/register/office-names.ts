// The offices' names, for sentences and tables ("the EUIPO (EM) record", "Office: USPTO (US)"):
// the one place they are spelt. Pure.

/** The office name of a jurisdiction, for sentences ("the EUIPO (EM) record"). */
export const OFFICE_NAMES: Readonly<Record<string, string>> = {
  US: 'USPTO',
  EM: 'EUIPO',
  WO: 'WIPO (Madrid)',
  GB: 'UKIPO',
  CA: 'CIPO',
  AU: 'IP Australia',
  CN: 'CNIPA',
  DE: 'DPMA',
  BX: 'BOIP (Benelux)',
  OA: 'OAPI',
  AP: 'ARIPO',
};

export function officeName(jurisdiction: string): string {
  return OFFICE_NAMES[jurisdiction] ?? `the ${jurisdiction} office`;
}
