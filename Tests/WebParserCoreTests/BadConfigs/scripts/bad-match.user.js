// ==UserScript==
// @name   wrong match
// @match  example.com/*
// ==/UserScript==
