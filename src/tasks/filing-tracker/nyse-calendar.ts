export * from "../../kernel/nyse-calendar.js";
