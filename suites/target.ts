/** What the suite is pointed at. */
export interface ConformanceTarget {
  /** The API's base URL, `/v1` included, e.g. `http://127.0.0.1:4010/v1`. */
  baseUrl: string
  apiKey: string
  /** Production mode: no createPet; checks that need a pet use one found by listing. */
  readOnly: boolean
  /**
   * With --via-prism: where Prism's validating proxy listens (it serves the contract's paths without
   * the `/v1` prefix). Requests go there, and its `sl-violations` headers become findings.
   */
  prismUrl?: string
}
