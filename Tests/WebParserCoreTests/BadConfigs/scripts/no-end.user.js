// ==UserScript==
// @name   unclosed
// @match  https://example.com/*
console.log("the header never ends");
