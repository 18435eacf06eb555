import { describe, expect, it } from "vitest";
import { PULL_SOURCE_NAMES } from "../../../src/ingest/pull/source-names.js";
import { PULL_SOURCES } from "../../../src/ingest/pull/sources.js";

describe("pull source names", () => {
  it("the CLI's light list names every source, in order", () => {
    expect([...PULL_SOURCE_NAMES]).toEqual(PULL_SOURCES.map((s) => s.name));
  });
});
