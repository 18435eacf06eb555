function renderSystemPrompt(o) {
  const tools = o.tools.map((t) => `- ${t.name} (${t.kind}): ${t.description}`).join("\n");
  const parts = [o.instruction.trimEnd(), o.howYouRun.trimEnd(), `## Tools
${tools}`];
  if (o.learned.trim().length > 0) parts.push(`## What you have learned
${o.learned.trimEnd()}`);
  return `${parts.join("\n\n")}
`;
}
export {
  renderSystemPrompt
};
//# sourceMappingURL=system-prompt.js.map
