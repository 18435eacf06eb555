export * from "../../kernel/nyse-calendar.js";
//# sourceMappingURL=nyse-calendar.js.map
